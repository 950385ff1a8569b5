# SDC clock constraints for lcanet designs (any SDC-reading flow: OpenSTA, Quartus, …).
# Every generated block has a single clock input named `clock`, one rising edge per
# bit-time; the IO-ring wrapper of scripts/fpga calls it `clk`. 50 MHz shown; change the
# period to your target.
create_clock -name clock -period 20.000 [get_ports {clock}]
set_input_delay  -clock clock 0.0 [remove_from_collection [all_inputs] [get_ports {clock}]]
set_output_delay -clock clock 0.0 [all_outputs]
