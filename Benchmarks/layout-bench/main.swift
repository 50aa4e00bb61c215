print("layout-bench: not yet")
