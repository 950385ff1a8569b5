// Lint fixture: `spare` is assigned but never used (Verilator -Wall: UNUSEDSIGNAL).
module unused (
    input  wire [3:0] a,
    input  wire [3:0] b,
    output wire [3:0] y
);
    wire [3:0] spare;
    assign spare = a & b;
    assign y = a;
endmodule
