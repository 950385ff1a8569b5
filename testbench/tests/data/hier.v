// A small hierarchy with internal registers, for access by hierarchical name:
// two pipeline stages (stage.v), wired as lvl0_sw0 -> lvl1_sw0.
module hier (
    input  wire       clk,
    input  wire       rst,
    input  wire [3:0] din,
    output wire [3:0] dout
);
    wire [3:0] mid;
    stage #(.INC(4'd1)) lvl0_sw0 (.clk(clk), .rst(rst), .d(din), .q(mid));
    stage #(.INC(4'd2)) lvl1_sw0 (.clk(clk), .rst(rst), .d(mid), .q(dout));
endmodule
