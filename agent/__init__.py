"""The agent layer: config, the turn loop, model providers and memory tools.

Never imports textual.
"""
