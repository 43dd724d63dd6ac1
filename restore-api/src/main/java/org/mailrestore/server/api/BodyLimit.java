package org.mailrestore.server.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.mailrestore.server.ServerSettings;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A bound on request bodies ({@code mailrestore.api.max-body-size}, 8 MB by default): a body
 * announced larger is answered 413 before any of it is read; a body that turns out larger (sent in
 * chunks) stops being read at the bound and is answered 413 too. Nothing the API takes comes near
 * it: 10,000 account names fit in a third of it.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class BodyLimit extends OncePerRequestFilter {

  /** Thrown by the body's stream when the bound is passed. */
  static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1;
    private final long limit;

    TooLarge(long limit) {
      super("the request body is larger than " + limit + " bytes");
      this.limit = limit;
    }

    long limit() {
      return limit;
    }
  }

  private final long limit;

  BodyLimit(ServerSettings settings) {
    this.limit = settings.api().maxBodySize().toBytes();
  }

  static ProblemDetail problem(long limit) {
    return ApiExceptionHandler.problem(
        HttpStatus.CONTENT_TOO_LARGE,
        "Content too large",
        "the request body is larger than " + limit + " bytes (mailrestore.api.max-body-size)");
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (request.getContentLengthLong() > limit) {
      response.setHeader("Connection", "close"); // the rest of the body is not read
      ProblemBodies.write(response, problem(limit));
      return;
    }
    chain.doFilter(new Bounded(request, limit), response);
  }

  /** The request with its body stream counted. */
  private static final class Bounded extends HttpServletRequestWrapper {
    private final long limit;
    private ServletInputStream stream;

    Bounded(HttpServletRequest request, long limit) {
      super(request);
      this.limit = limit;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      if (stream == null) {
        stream = new Counted(super.getInputStream(), limit);
      }
      return stream;
    }
  }

  private static final class Counted extends ServletInputStream {
    private final ServletInputStream in;
    private final long limit;
    private long read;

    Counted(ServletInputStream in, long limit) {
      this.in = in;
      this.limit = limit;
    }

    private int counted(int n) throws TooLarge {
      if (n > 0) {
        read += n;
        if (read > limit) {
          throw new TooLarge(limit);
        }
      }
      return n;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        counted(1);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return counted(in.read(b, off, len));
    }

    @Override
    public boolean isFinished() {
      return in.isFinished();
    }

    @Override
    public boolean isReady() {
      return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
      in.setReadListener(listener);
    }
  }
}
