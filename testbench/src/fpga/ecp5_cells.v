// Simulation models of the ECP5 cells that nextpnr-ecp5 writes into a routed netlist
// (`--write`) and Yosys's ecp5/cells_sim.v lacks, built from that library's own cells
// (LUT4, LUT2, PFUMX, L6MUX21) exactly as its TRELLIS_SLICE model combines them.
// Used with /usr/share/yosys/ecp5/cells_sim.v by `lcanet fpga --check-routed`
// (docs/selftest.md, "The placed design, simulated").
//
// TRELLIS_COMB is one half of a slice: a LUT4 (MODE "LOGIC") or one half of a CCU2C carry
// cell (MODE "CCU2"), and the slice's wide-function mux: PFUMX (LUT5, F1 = the partner
// LUT) in the first half, L6MUX21 (FXA/FXB from neighbouring slices) in the second
// (IS_Z1 = 1). Yosys 0.23 has no TRELLIS_COMB; later Yosys releases have one whose CCU2
// branch declares `wire FCO = ...` inside the generate block, a new local wire, so the
// port FCO is never driven and every carry chain is lost. The flow sets IS_Z1 and ties
// unconnected LUT inputs from the netlist's connectivity (testbench/src/fpga/routed.rs);
// MODE "DPRAM" (LUT RAM) is refused there.
`timescale 1ns / 1ps
module TRELLIS_COMB (
    input A, B, C, D, M,
    input FCI, F1, FXA, FXB,
    input WD, WAD0, WAD1, WAD2, WAD3, WRE, WCK,
    output F, FCO, OFX
);
    parameter MODE = "LOGIC";
    parameter INITVAL = 16'h0000;
    parameter CCU2_INJECT1 = "NO";
    parameter WREMUX = "WRE";
    parameter IS_Z1 = 1'b0;
    generate
        if (MODE == "CCU2") begin : carry
            wire l4o, l2o;
            LUT4 #(.INIT(INITVAL)) lut4 (.A(A), .B(B), .C(C), .D(D), .Z(l4o));
            LUT2 #(.INIT(INITVAL[3:0])) lut2 (.A(A), .B(B), .Z(l2o));
            wire cin = (CCU2_INJECT1 == "YES") ? 1'b0 : FCI;
            wire gen = (CCU2_INJECT1 == "YES") ? 1'b0 : l2o;
            assign F = l4o ^ cin;
            assign FCO = (~l4o & gen) | (l4o & FCI);
        end else begin : lut
            LUT4 #(.INIT(INITVAL)) lut4 (.A(A), .B(B), .C(C), .D(D), .Z(F));
            assign FCO = 1'b0;
        end
        if (IS_Z1) begin : z1
            L6MUX21 lutx_mux (.D0(FXA), .D1(FXB), .SD(M), .Z(OFX));
        end else begin : z0
            PFUMX lut5_mux (.ALUT(F1), .BLUT(F), .C0(M), .Z(OFX));
        end
    endgenerate
endmodule

// The global clock buffer (its enable is unused by the flow's designs).
module DCCA (input CLKI, input CE, output CLKO);
    assign CLKO = CLKI;
endmodule
