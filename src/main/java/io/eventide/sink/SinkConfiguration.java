package io.eventide.sink;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Binds the settings of the outputs: pane streams, results and dead letters. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(OutputProperties.class)
public class SinkConfiguration {}
