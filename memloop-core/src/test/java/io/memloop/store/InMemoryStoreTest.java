package io.memloop.store;

class InMemoryStoreTest extends MemoryStoreContract {
  @Override
  protected MemoryStore newStore(int dimension) {
    return new InMemoryStore(dimension);
  }
}
