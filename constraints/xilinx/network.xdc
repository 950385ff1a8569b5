## Timing constraints for an lcanet network top placed with its own ports (no IO ring):
## every generated block is clocked by the single input `clock`. Pin locations depend on
## the board and the network size; add PACKAGE_PIN lines for the ports you bring out.
## Not exercised by CI (no Vivado here).
create_clock -name clock -period 10.000 -waveform {0 5} [get_ports { clock }]
set_input_delay  -clock clock 2.000 [get_ports -filter { DIRECTION == IN && NAME != "clock" }]
set_output_delay -clock clock 2.000 [get_ports -filter { DIRECTION == OUT }]
