def handle(event):
    raise NotImplementedError
