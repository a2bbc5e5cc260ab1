"""Redis for the services: the embedded server this project launches, and the client for any URL."""
