"""Helpers the tests share: app servers, browser drivers, reference implementations."""
