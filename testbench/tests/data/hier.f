stage.v
hier.v
