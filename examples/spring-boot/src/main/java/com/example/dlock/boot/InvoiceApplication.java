package com.example.dlock.boot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Run with {@code mvn -f examples/spring-boot spring-boot:run -Dspring-boot.run.arguments=--spring.data.redis.url=redis://HOST:PORT}. */
@SpringBootApplication
public class InvoiceApplication {
    public static void main(String[] args) {
        SpringApplication.run(InvoiceApplication.class, args);
    }
}
