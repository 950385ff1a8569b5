cell_d2_h3.v
demo_top.v
