package org.mailrestore.server.api;

import java.net.URI;
import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * A problem's {@code instance} is the path asked for, which can be as long as the container takes:
 * it is cut, like the details, so that nothing sent comes back unbounded.
 */
@ControllerAdvice
class BoundedProblems implements ResponseBodyAdvice<Object> {

  private static final int MAX_INSTANCE = 200;

  @Override
  public boolean supports(
      MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
    return true;
  }

  @Override
  public Object beforeBodyWrite(
      Object body,
      MethodParameter returnType,
      MediaType selectedContentType,
      Class<? extends HttpMessageConverter<?>> selectedConverterType,
      ServerHttpRequest request,
      ServerHttpResponse response) {
    if (body instanceof ProblemDetail p
        && p.getInstance() != null
        && p.getInstance().toString().length() > MAX_INSTANCE) {
      p.setInstance(URI.create(p.getInstance().getRawPath().substring(0, MAX_INSTANCE)));
    }
    return body;
  }
}
