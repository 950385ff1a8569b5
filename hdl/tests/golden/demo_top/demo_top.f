cell_d2__state.v
cell_d2__phase.v
cell_d2.v
demo_top.v
