hc_ctrl_k2_l4.v
hc_ctrl_k2_l4_tap.v
hc_node_k2_l4.v
hypercube_k2_l4.v
