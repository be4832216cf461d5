"""Who may do what: users, their roles and corpus tiers, passwords and tokens, and the limits on each reader.

roles.py     the tiers, the roles (each a set of permissions and default tiers), and the Reader of a request
passwords.py passwords hashed with scrypt (memory-hard), random tokens stored as digests
limits.py    query rate, model-writer calls, upload bytes and queued jobs per user and per address
commands.py  `flask --app app users create | list | set-role | token | revoke`
The users, their tokens and sessions are stored beside the answer history (storage/accounts.py,
postgres/accounts.py), so every process of a server reads the same ones.
"""
