package org.mailrestore.dav;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/** The XML of DAV requests and answers: bodies sent with their type, multistatus read safely. */
final class DavXml {

  /** The type of a request's XML body, which Cyrus requires be said. */
  static final String TYPE = "application/xml; charset=utf-8";

  private DavXml() {}

  static HttpRequest.BodyPublisher body(String xml) {
    return HttpRequest.BodyPublishers.ofString(xml, StandardCharsets.UTF_8);
  }

  /** Text put in an element of a request. */
  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** A multistatus answer, parsed without DTDs or external entities. */
  static Document parse(String multistatus) throws IOException {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return f.newDocumentBuilder()
          .parse(new ByteArrayInputStream(multistatus.getBytes(StandardCharsets.UTF_8)));
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException("the server's answer is not a multistatus: " + e.getMessage(), e);
    }
  }

  /** The text of {@code parent}'s first element of that name, or null. */
  static String text(Element parent, String ns, String name) {
    NodeList list = parent.getElementsByTagNameNS(ns, name);
    return list.getLength() == 0 ? null : list.item(0).getTextContent();
  }
}
