// Combinational design with top ports of widths 1, 7, 33, 64, 65 and 130 bits, to check
// every storage class of the Verilator bridge (CData, IData/QData, VlWide).
module widths (
    input  wire         a1,
    input  wire [6:0]   a7,
    input  wire [32:0]  a33,
    input  wire [63:0]  a64,
    input  wire [64:0]  a65,
    input  wire [129:0] a130,
    output wire         y1,
    output wire [6:0]   y7,
    output wire [32:0]  y33,
    output wire [63:0]  y64,
    output wire [64:0]  y65,
    output wire [129:0] y130
);
    assign y1   = ~a1;
    assign y7   = a7 + 7'd1;
    assign y33  = a33 ^ {a1, 32'hdeadbeef};
    assign y64  = a64 + {31'd0, a33};
    assign y65  = {a65[0], a65[64:1]};
    assign y130 = a130 + {65'd0, a65};
endmodule
