"""The Textual app: it renders what the agent does and owns no business logic."""
