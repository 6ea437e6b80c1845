"""The Qt-free core: the application service every front end calls (service/), and
below it the stores, search, the chat's read and write paths, keys and storage."""
