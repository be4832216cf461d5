"""The PostgreSQL + pgvector backend, chosen by DATABASE_URL: the library, its search, jobs and history in one database.

database.py  the pool, statement timeouts, retries, migrations     schema.py   the tables, as numbered migrations
store.py     documents and jobs (claimed with SKIP LOCKED)          files.py    uploaded files, in the database
library.py   changes, with BM25's term statistics                  search.py   BM25 and pgvector search in SQL
history.py   the answer log                                         moving_in.py  an embedded library copied in
backend.py   which backend a configuration names                    commands.py `flask --app app db ...`
accounts.py  users, tokens, sessions, usage counts                 relation_store.py  relations between passages
provider_settings.py  the providers' keys and models an admin set
asked.py     the questions written beside passages, read into memory and scored      vocabulary.py  BM25's terms
"""
