"""The server's settings as one typed record, nested by concern.

settings.py  Settings: library, models, search, writers, database, server, limits; each field with its flat name
             (FLASK_<NAME> in the environment) and its default; read from a mapping when an app is created
"""
