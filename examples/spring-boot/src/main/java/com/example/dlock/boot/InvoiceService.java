package com.example.dlock.boot;

import dev.dlock.spring.Locked;
import dev.dlock.spring.LockedContext;
import org.springframework.stereotype.Service;

/** One invoice is processed by one instance of the application at a time, whichever JVM calls. */
@Service
public class InvoiceService {

    /**
     * Processes an invoice under the lock {@code invoice:<id>}, waiting up to 5 s for it.
     *
     * @param id the invoice id
     * @return the fencing token of the hold, for the store to reject stale writers
     */
    @Locked(name = "'invoice:' + #id", waitFor = "5s")
    public long process(String id) {
        long token = LockedContext.currentFencingToken();
        // ... write the invoice, passing the token to the store ...
        return token;
    }
}
