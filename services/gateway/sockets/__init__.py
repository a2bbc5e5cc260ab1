"""Websockets: one module per socket kind, and what every socket shares.

socket_routes (the game socket's route, the bench's echo), game_socket, race_socket and race_frames,
board_socket (a daily's leaderboard room); messages.py names every frame by direction (c2s.*, s2c.*),
frame_admission.py and player_budget.py admit a client's frames (size, budget), pushes.py sends
versioned pushes in order, raw_send.py sends a game socket's data frames past the per-message
wrappers. They may import the services, guards and links; never a route module or the gateway's top.
"""
