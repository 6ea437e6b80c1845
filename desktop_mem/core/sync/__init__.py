"""Two or more computers, one memory: sync through a folder that an existing engine
(Syncthing, Dropbox, iCloud Drive, OneDrive, Nextcloud, a network share) carries, with
only ciphertext in it and no server of ours.

crypto (keys, seals, sealed files), files (the folder's layout and file format), fsafe
(the folder walked and read without following a link, blocking, or reading past a
cap), quarantine (files refused for what they are, left alone until they change), keys
(the sync key's generations, pairing), wire (a record as the files hold it), merge (how
records merge: the rules, with no database), capture (the logical clock and what changed
here, stamped and sent), applying (what another computer sent, taken in), replica (the
two, for a pass), lost (what a merge dropped, kept for the user), passes (a pass and
its lock), actions (setting up, joining, moving, removing), status (what the window
shows), syncer (the one object over them)."""
