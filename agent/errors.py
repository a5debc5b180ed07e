"""Errors raised by the agent layer, all under one base class."""

from __future__ import annotations


class AgentError(Exception):
    """Base class of every error the agent layer raises on purpose."""


class ConfigError(AgentError):
    """The config file is unreadable, not valid TOML, or has a bad value."""
