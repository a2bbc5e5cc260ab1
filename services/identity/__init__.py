"""Who a player is: signed tokens, and what a token cannot say by itself.

tokens.py (a JWT naming a player, signed with the server secret; the secrets made once in the data
folder), sessions.py (token generations and one-use socket tickets, kept in Redis so every process
agrees). Accounts (names, password hashes) are the tournaments' (services/tournaments/accounts.py).
"""
