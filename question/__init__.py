"""What happens to a question before search: its type, and a follow-up rewritten into a standalone question."""
