package org.mailrestore.server.api;

import java.util.function.Consumer;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.MutableCoercionConfig;
import tools.jackson.databind.type.LogicalType;

/**
 * Request bodies are read strictly: a misspelt option, a number where a flag goes, 1.5 accounts, a
 * field given twice are refused (400, naming the field) rather than dropped or coerced without a
 * word.
 */
@Configuration(proxyBeanMethods = false)
class StrictJson {

  @Bean
  JsonMapperBuilderCustomizer strictRequests() {
    return builder ->
        builder
            .enable(
                DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
                DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES,
                DeserializationFeature.FAIL_ON_TRAILING_TOKENS,
                DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .withCoercionConfig(
                LogicalType.Boolean,
                refusing(
                    CoercionInputShape.Integer,
                    CoercionInputShape.Float,
                    CoercionInputShape.String))
            .withCoercionConfig(
                LogicalType.Integer,
                refusing(
                    CoercionInputShape.Float,
                    CoercionInputShape.String,
                    CoercionInputShape.Boolean))
            .withCoercionConfig(
                LogicalType.Float, refusing(CoercionInputShape.String, CoercionInputShape.Boolean))
            .withCoercionConfig(
                LogicalType.Textual,
                refusing(
                    CoercionInputShape.Integer,
                    CoercionInputShape.Float,
                    CoercionInputShape.Boolean));
  }

  /** No conversion from these shapes: the value must come as the type it is. */
  private static Consumer<MutableCoercionConfig> refusing(CoercionInputShape... shapes) {
    return config -> {
      for (CoercionInputShape shape : shapes) {
        config.setCoercion(shape, CoercionAction.Fail);
      }
    };
  }
}
