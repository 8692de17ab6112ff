def capture(order_id, amount):
    raise NotImplementedError
