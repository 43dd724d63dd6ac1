package org.mailrestore.source;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;

/**
 * A source that hands every call to another: decorators extend it and override only what they
 * change.
 */
public abstract class ForwardingMailSource implements MailSource {

  protected final MailSource delegate;

  protected ForwardingMailSource(MailSource delegate) {
    this.delegate = delegate;
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public String identity() throws IOException {
    return delegate.identity();
  }

  @Override
  public String accountRef(String accountId) {
    return delegate.accountRef(accountId);
  }

  @Override
  public List<Parsed<Domain>> domains() {
    return delegate.domains();
  }

  @Override
  public List<Parsed<ClassOfService>> classesOfService() {
    return delegate.classesOfService();
  }

  @Override
  public List<Parsed<DistributionList>> distributionLists() {
    return delegate.distributionLists();
  }

  @Override
  public List<String> accountIds() {
    return delegate.accountIds();
  }

  @Override
  public Parsed<Account> account(String accountId) {
    return delegate.account(accountId);
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    return delegate.grants(accountId);
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    return delegate.items(accountId, types);
  }

  @Override
  public BlobSource blobs() {
    return delegate.blobs();
  }

  @Override
  public List<SourceProblem> problems(String accountId) {
    return delegate.problems(accountId);
  }

  @Override
  public void doneWith(String accountId) {
    delegate.doneWith(accountId);
  }

  @Override
  public void doneWithItems(String accountId, List<Item> items) {
    delegate.doneWithItems(accountId, items);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
