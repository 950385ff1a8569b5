// A zero-delay loop: `a` and `b` wake each other forever at time 0, so `vvp` never ends
// (what the R2 network benches did before combinational blocks became glitch-free).
`default_nettype none
module spin;
    reg a;
    reg b;
    initial a = 1'b1;
    always @(a) b = ~a;
    always @(b) a = b;
endmodule
`default_nettype wire
