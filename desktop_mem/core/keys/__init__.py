"""Keys: the vault (OS keyring or passphrase) and the recovery code."""
