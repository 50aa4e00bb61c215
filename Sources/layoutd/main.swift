print("layoutd: not yet")
