## Digilent Arty A7 (xc7a35ticsg324-1L / xc7a100t) for the 3-pin IO ring of scripts/fpga
## (module lcanet_fpga_top from scripts/lib/fpga_ioring.py). 100 MHz oscillator; the USB-UART
## bridge carries ser_in (host -> FPGA) and ser_out (FPGA -> host).
## Not exercised by CI (no Vivado here); pin names follow Digilent's Arty-A7 master XDC.
set_property -dict { PACKAGE_PIN E3  IOSTANDARD LVCMOS33 } [get_ports { clk }]
create_clock -name clk -period 10.000 -waveform {0 5} [get_ports { clk }]
set_property -dict { PACKAGE_PIN A9  IOSTANDARD LVCMOS33 } [get_ports { ser_in }]
set_property -dict { PACKAGE_PIN D10 IOSTANDARD LVCMOS33 } [get_ports { ser_out }]
## ser_in/ser_out are slow serial pins: do not time them against the core clock.
set_false_path -from [get_ports { ser_in }]
set_false_path -to [get_ports { ser_out }]
