"""The review screen: its scene and its drawing."""
