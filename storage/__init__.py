"""SQLite files: how they are opened and migrated, the library's store, and the answer history."""
