package org.mailrestore.mail;

/**
 * A permission on one of an account's folders, from {@code accounts/<id>/shares.json}.
 *
 * @param folderId the shared folder, by its id in the owner's backup
 * @param granteeId for {@code usr}: the grantee's account id in the backup; for {@code grp}: the
 *     list address; for {@code dom}: the domain name; otherwise null
 * @param granteeName the grantee's address or name at backup time, for people reading reports
 * @param rights Zimbra's rights letters: r(ead) w(rite) i(nsert) d(elete) x (workflow) a(dmin)
 */
public record Grant(
    int folderId, GranteeType granteeType, String granteeId, String granteeName, String rights) {}
