-- Flags take Zimbra's own bit positions for every letter (decision 0014). Until now the folder
-- flags sat six bits off: subscribed (*) at bit 17, excluded from free/busy (b) 18, no inheritance
-- (i) 19, checked (#) 20, sync folder (y) 21, sync (~) 22. Zimbra has them at 19, 20, 22, 21, 24,
-- 25; bits 0 to 11 (the message flags) were right and stay.
UPDATE mail_item
SET flags = (flags & ~0x7E0000)
    | (((flags >> 17) & 1) << 19)
    | (((flags >> 18) & 1) << 20)
    | (((flags >> 19) & 1) << 22)
    | (((flags >> 20) & 1) << 21)
    | (((flags >> 21) & 1) << 24)
    | (((flags >> 22) & 1) << 25)
WHERE flags & 0x7E0000 <> 0;

-- Item attributes may hold up to 1 MiB together (an appointment's Zimbra metadata, kept as it came
-- from an account archive): TEXT holds 64 KiB.
ALTER TABLE mail_item MODIFY metadata MEDIUMTEXT NULL;
