"""What crosses processes: the fan-out that brings every update to every socket of its game.

fanout.py (publish and subscribe, a confirmed subscription before a socket counts as joined),
pubsub_link.py (one Redis server's pub/sub), sharded_link.py (a cluster's sharded pub/sub),
local_sockets.py (this process's sockets by channel, reached without Redis). They import Redis's
client and the guards' overload answer, nothing else of the gateway.
"""
