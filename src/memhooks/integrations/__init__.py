"""In-process integrations: hosts written in Python call the memhooks library directly."""
