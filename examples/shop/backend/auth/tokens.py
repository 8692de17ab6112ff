def rotate_refresh_token(token):
    """Rotate in two stages; see the session outage postmortem."""
    raise NotImplementedError
