package org.mailrestore.server.security;

import jakarta.servlet.DispatcherType;
import java.util.ArrayList;
import java.util.List;
import org.mailrestore.server.ServerSettings;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;

/**
 * Who may do what: health is open (probes); everything else needs a user (basic auth) or an API
 * token (bearer); reading needs the viewer or admin role, changing anything the admin role.
 * Stateless: no session, no cookie, so no CSRF to guard against.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

  /**
   * The console's scripts and styles are files of this origin; nothing inline, nothing from
   * elsewhere, no frames around it.
   */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
          + " img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

  @Bean
  SecurityFilterChain api(HttpSecurity http, ApiTokens tokens, ProblemResponses problems)
      throws Exception {
    http.csrf(c -> c.disable())
        .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
        .authorizeHttpRequests(a ->
            // Error dispatches carry the status of the request that failed; re-checking them would
            // turn every error into a 401.
            a.dispatcherTypeMatchers(DispatcherType.ERROR)
                .permitAll()
                // An asynchronous dispatch (a progress stream's) continues a request already
                // authorized; its credentials are not sent again.
                .dispatcherTypeMatchers(DispatcherType.ASYNC)
                .permitAll()
                .requestMatchers("/actuator/health", "/actuator/health/**")
                .permitAll()
                // The console's page and modules hold no data: it asks the API as the user.
                .requestMatchers(HttpMethod.GET, "/", "/index.html", "/console/**")
                .permitAll()
                // Asked for by its address, the error page answers 404 to anyone.
                .requestMatchers("/error")
                .permitAll()
                .requestMatchers(HttpMethod.GET, "/api/**")
                .hasAnyRole("VIEWER", "ADMIN")
                .requestMatchers(HttpMethod.HEAD, "/api/**")
                .hasAnyRole("VIEWER", "ADMIN")
                .requestMatchers("/api/**")
                .hasRole("ADMIN")
                .anyRequest()
                .authenticated())
        .headers(h ->
            h.contentSecurityPolicy(c -> c.policyDirectives(CONTENT_SECURITY_POLICY))
                .frameOptions(f -> f.deny()))
        .httpBasic(b -> b.authenticationEntryPoint(problems))
        .exceptionHandling(e -> e.authenticationEntryPoint(problems).accessDeniedHandler(problems))
        .addFilterBefore(new BearerTokenFilter(tokens, problems), BasicAuthenticationFilter.class);
    return http.build();
  }

  /** Passwords as configured: {@code {bcrypt}...} (or {@code {noop}...} for tests). */
  @Bean
  PasswordEncoder passwordEncoder() {
    return PasswordEncoderFactories.createDelegatingPasswordEncoder();
  }

  @Bean
  UserDetailsService users(ServerSettings settings) {
    List<UserDetails> users = new ArrayList<>();
    for (ServerSettings.SecuritySettings.User u : settings.security().users()) {
      users.add(User.withUsername(u.name()).password(u.password()).roles(u.role().name()).build());
    }
    return new InMemoryUserDetailsManager(users);
  }
}
