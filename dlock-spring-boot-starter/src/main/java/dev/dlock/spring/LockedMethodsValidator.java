package dev.dlock.spring;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * Parses the {@link Locked} attributes of every bean's methods as the bean is made, so that an
 * unusable attribute fails the application's start, naming the method, instead of its first call.
 * Each class is read once. Thread-safe.
 */
final class LockedMethodsValidator implements BeanPostProcessor {
    private final ObjectProvider<LockedMethods> methods;
    private final Set<Class<?>> checked = ConcurrentHashMap.newKeySet();

    LockedMethodsValidator(ObjectProvider<LockedMethods> methods) {
        this.methods = methods;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> type = ClassUtils.getUserClass(AopUtils.getTargetClass(bean));
        if (checked.add(type) && AnnotationUtils.isCandidateClass(type, Locked.class)) {
            Map<Method, Locked> annotated =
                    MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<Locked>)
                            method -> AnnotatedElementUtils.findMergedAnnotation(method, Locked.class));
            if (!annotated.isEmpty()) {
                LockedMethods parser = methods.getObject();
                annotated.keySet().forEach(parser::get);
            }
        }
        return bean;
    }
}
