// Icarus -Wall fixture: `tmp` is never declared (an implicit net), which -Wall warns about.
module implicit (
    input  wire a,
    output wire y
);
    assign tmp = a;
    assign y = tmp;
endmodule
