"""The `memchat memory …` commands: arguments, the command table, and each command.

`agent.cli.table.COMMANDS` declares every command once (name, help, arguments, handler);
`tui.cli` builds the argument parser from it and runs the chosen handler.
"""
