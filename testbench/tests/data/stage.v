// One pipeline stage: registers d + INC into `xp_sel` and accumulates every d into the
// 70-bit `total` (a wide internal register).
module stage #(
    parameter [3:0] INC = 4'd1
) (
    input  wire       clk,
    input  wire       rst,
    input  wire [3:0] d,
    output wire [3:0] q
);
    reg [3:0]  xp_sel;
    reg [69:0] total;
    always @(posedge clk) begin
        if (rst) begin
            xp_sel <= 4'd0;
            total  <= 70'd0;
        end else begin
            xp_sel <= d + INC;
            total  <= total + {66'd0, d};
        end
    end
    assign q = xp_sel;
endmodule

