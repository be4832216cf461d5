"""SQLite files: how they are opened and migrated, the library's store, and the answer history.

database.py    connections (WAL, busy timeout, per thread and process), transactions, the one migrate()
store.py       documents, chunks with embeddings, and ingest jobs: the library's truth
schema.py      the store's tables as numbered migrations
relation_store.py relations between passages (who argues with whom), in the store, and their rules
history.py     every answer, its feedback and review, searchable in any script
history_schema.py  the answer log's migrations and its trigram index
provider_state.py  each model provider's last state, in the history file, shared by every worker
accounts.py    users, tokens, sessions and the limits' usage counts, in the history file
provider_settings.py  the providers' API keys and default models an admin set, in the history file
files.py       the files an embedded library keeps: uploads waiting for a job, each document's source
leases.py      which process runs which ingest job: a lock file per job
answers.py     what an answer log accepts, for both backends: the entry's row
reviewed.py    reviewed answers to similar questions, for both backends: the question's vector, the SQL, the items
protocols.py   the interfaces both backends implement: Store, History, Accounts, Relations, Library
queries.py     the document columns, row mappers and reads both stores share
account_queries.py  the accounts' queries both backends share
"""
