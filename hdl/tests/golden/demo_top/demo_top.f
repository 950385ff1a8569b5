cell_d2.v
demo_top.v
