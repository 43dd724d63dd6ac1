package org.mailrestore.server.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/** Authenticates {@code Authorization: Bearer <token>} against the configured API tokens. */
final class BearerTokenFilter extends OncePerRequestFilter {

  private static final String PREFIX = "Bearer ";

  private final ApiTokens tokens;
  private final ProblemResponses problems;

  BearerTokenFilter(ApiTokens tokens, ProblemResponses problems) {
    this.tokens = tokens;
    this.problems = problems;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String header = request.getHeader("Authorization");
    if (header == null || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      chain.doFilter(request, response);
      return;
    }
    Optional<ApiTokens.Holder> holder = tokens.find(header.substring(PREFIX.length()).strip());
    if (holder.isEmpty() && isHealth(request)) {
      chain.doFilter(request, response); // open to probes, whatever they send: as anonymous
      return;
    }
    if (holder.isEmpty()) {
      SecurityContextHolder.clearContext();
      problems.commence(request, response, new BadCredentialsException("unknown token"));
      return;
    }
    var authentication =
        UsernamePasswordAuthenticationToken.authenticated(
            holder.get().name(),
            null,
            List.of(new SimpleGrantedAuthority("ROLE_" + holder.get().role().name())));
    SecurityContextHolder.getContext().setAuthentication(authentication);
    try {
      chain.doFilter(request, response);
    } finally {
      SecurityContextHolder.clearContext();
    }
  }

  private static boolean isHealth(HttpServletRequest request) {
    String path = request.getRequestURI();
    return path.equals("/actuator/health") || path.startsWith("/actuator/health/");
  }
}
