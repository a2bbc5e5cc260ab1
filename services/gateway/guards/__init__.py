"""What every request or socket passes through before any work: identity, limits, overload, logging.

auth.py (the bearer token of a request, the ticket of a socket), limits.py (HTTP rate limits on a
Redis store every process shares), rate_limit.py (a socket's token bucket), overload.py (Redis
cannot keep up: 503 or `s2c.error unavailable`, never a 500), request_log.py (a line per request,
two per socket), json_numbers.py (7.0 read as 7, in bodies and frames alike). They import the error
shape (../errors.py) and the socket frames they answer with (../sockets/messages.py), never a route.
"""
