"""What goes out to sockets: the channel groups and the one way services hand them
messages, the laptop stack's channel layer, and the long-lived loops' cancel rule."""
