package org.mailrestore.server.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * The actuator answers some errors with no body at all (a health component asked for without the
 * right to see it: 404); those get a problem detail like every other error. Only the small health
 * answers pass through here, never the metrics.
 */
@Component
class EmptyErrorBodies extends OncePerRequestFilter {

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !request.getRequestURI().startsWith("/actuator/health");
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    ContentCachingResponseWrapper wrapper = new ContentCachingResponseWrapper(response);
    chain.doFilter(request, wrapper);
    HttpStatus status = HttpStatus.resolve(wrapper.getStatus());
    if (status != null && status.isError() && wrapper.getContentSize() == 0) {
      ProblemBodies.write(wrapper, ProblemErrorController.problem(status, false));
    }
    wrapper.copyBodyToResponse();
  }
}
