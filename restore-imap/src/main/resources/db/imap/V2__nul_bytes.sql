-- nul_bytes: where the message had NUL bytes, which IMAP does not carry: they are sent as 0x80 and
-- turned back when the message is read back (decision 0072). The places, counted in the message as
-- sent, as gaps of variable length; NULL when it had none.
ALTER TABLE imap_message ADD COLUMN IF NOT EXISTS nul_bytes MEDIUMBLOB NULL;
